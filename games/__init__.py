"""Games: the event-sourced game streams, their services, bots and tasks.

engine is the pure-Python rules engine; nothing here is imported by it, and this file
stays free of Django imports so the engine can be used without Django.
"""

"""The soak harness (`make soak`, `python -m soak`): docs/reliability.md."""

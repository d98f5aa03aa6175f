"""People's accounts: profiles (birth date) and personal API tokens."""

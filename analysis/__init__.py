"""Analysis of finished matches: what each decision cost and what the cards gave (docs/analysis.md)."""

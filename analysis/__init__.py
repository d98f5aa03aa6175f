"""Analysis of finished matches: what each decision cost, what the cards gave (docs/analysis.md)."""

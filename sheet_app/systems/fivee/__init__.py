"""What the 5e-style systems (Runarcana, D&D 5e SRD 5.1) share: model, rules, conditions and
sheet. Not a system itself: each system package passes its own facts (skills, carrying)."""

"""Per-entity keys, authenticated sealing of event payloads, and crypto-shredding."""

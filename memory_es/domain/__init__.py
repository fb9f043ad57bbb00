"""The pure domain: commands, events, temporal rules and decisions.

Nothing here touches storage, arrays or the clock; everything is a function of values.
"""

"""The lab: simulations, parallel runs and the balance lab."""

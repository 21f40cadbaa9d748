"""Analyses and their runs: the contract, a result's inputs, running, stored results and their state."""

"""Proposition 3 (von Oswald et al., 2023): separate input and target tokens.

A softmax first layer copies each target onto its input token; a linear
self-attention second layer then performs one gradient-descent step.
(Work in progress.)
"""

NAME = "prop3-token-building"

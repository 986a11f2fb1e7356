"""Agents: bots and the terminal player, all answering the same requests."""

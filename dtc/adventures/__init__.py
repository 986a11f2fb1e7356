"""Dice Throne Adventures: minions (and, later, bosses) run by their printed bot rules."""

"""Dice Throne: the rules engine over compiled rulesets."""

"""Kingdoms of Valeria: sheets as content, its effect language, engine, bots and sessions."""

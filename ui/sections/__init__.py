"""The parts of a character sheet, one small class per control or group of controls."""

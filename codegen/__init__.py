"""Generates `generated/` from `ops.yaml`: load, validate, compute names, render, format, write."""

"""Fudaba's Discord adapter: commands, components, rendering and storage around the pure engines."""

"""The computations themselves. Each module imports torch; only the runner imports them."""

"""The domain values every layer uses: MQ objects, the simulated clock, damage, progress and reason codes."""

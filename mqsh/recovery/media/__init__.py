"""Media recovery: which objects it covers, objects re-created from their images, automatic imaging, native HA."""

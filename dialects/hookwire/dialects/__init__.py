"""Built-in dialects. Each registers itself through the ``hookwire.dialects`` entry point."""

"""Built-in native plugins and runtime adapters, registered through ``hookwire.plugins``."""

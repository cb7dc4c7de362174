"""The HTTP and WebSocket routes, one module per part of the API."""

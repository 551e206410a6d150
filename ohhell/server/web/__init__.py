"""The HTTP side: pages, the JSON API, security headers, CSRF, the client's texts."""

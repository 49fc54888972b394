"""The REST API (Flask + marshmallow). Built by the service issue; empty until then."""

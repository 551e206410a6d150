"""Several server processes, one site: the broker, leases and fencing, mirrors of other owners' tables."""

"""Where the tests find the repository and the shared rule books and conformance cases."""
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
JADE_ROSE_DEMO = REPO / "templates" / "jade_rose" / "scenarios" / "demo.toml"

"""An in-process fake of Google's Sheets v4 and Drive v3 APIs, for tests and benchmarks.

    fake = FakeGoogle()
    gc = fake_client(fake, "player@example.com")        # an unmodified gspread.Client
    backend = fake_backend(fake, "bot@proj.iam.gserviceaccount.com", gm_emails=["gm@example.com"])

Nothing here reaches the network: every Google URL of the session is answered by the fake.
"""
from sheets_bridge.testing.adapter import FakeGoogleAdapter, mount
from sheets_bridge.testing.fake_errors import PROTECTED_MESSAGE, ApiError
from sheets_bridge.testing.fake_google import Call, FakeGoogle, Fault, Identity
from sheets_bridge.testing.harness import FakeClock, fake_backend, fake_client, fake_session, gm_created_books

__all__ = ["FakeGoogle", "FakeGoogleAdapter", "Fault", "Call", "Identity", "ApiError", "PROTECTED_MESSAGE",
           "FakeClock", "fake_backend", "fake_client", "fake_session", "gm_created_books", "mount"]

"""An in-process fake of Google's Sheets v4 and Drive v3 APIs, for tests and benchmarks.

    fake = FakeGoogle()
    gc = fake_client(fake, "player@example.com")        # an unmodified gspread.Client
    backend = fake_backend(fake, "bot@proj.iam.gserviceaccount.com", gm_emails=["gm@example.com"])

Nothing here reaches the network: every Google URL of the session is answered by the fake.
"""
from tests.fake_google.adapter import FakeGoogleAdapter, mount
from tests.fake_google.fake_errors import PROTECTED_MESSAGE, ApiError
from tests.fake_google.fake_google import Call, FakeGoogle, Fault, Identity
from tests.fake_google.harness import FakeClock, fake_backend, fake_client, fake_session, gm_created_books, routed_to

__all__ = ["FakeGoogle", "FakeGoogleAdapter", "Fault", "Call", "Identity", "ApiError", "PROTECTED_MESSAGE",
           "FakeClock", "fake_backend", "fake_client", "fake_session", "gm_created_books", "mount", "routed_to"]

"""Headless Chromium for the site's browser tests: where it is (None where none is installed;
CI's .ci/run installs Debian's `chromium`) and the flags every run of it takes."""

from __future__ import annotations

import shutil

CHROMIUM = next((p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome",
                                                "google-chrome-stable")) if p), None)
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=1280,900"]

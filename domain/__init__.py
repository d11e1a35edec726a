"""What a match IS: rules engines, events, and the recording application.

Installed as `tablelog.domain`. Release 0.1 installed it as the top-level package `domain`, and
every event it stored names its class by that topic (`domain.match:Match.Started`). A stored
event is forever, so the old module prefix resolves to this package.
"""

import sys

from eventsourcing.utils import register_topic

LEGACY_PACKAGE = "domain"
register_topic(LEGACY_PACKAGE, sys.modules[__name__])

# The project is mmcv itself: its own ops package, not the third-party one.

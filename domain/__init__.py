"""What a match IS: rules engines, events, and the recording application."""

"""Pure figure builders: a DataFrame (or plain values) in, a plotly figure out. No I/O, no Dash."""

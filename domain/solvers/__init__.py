"""Game solvers: exhaustive analyses of small games, built on the rules engines' positions."""

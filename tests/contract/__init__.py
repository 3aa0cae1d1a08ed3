"""One contract for every study (issue 45 item 4): the same cases, the same rules."""

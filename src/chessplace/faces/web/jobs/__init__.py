"""The web app's job machinery: the registry of jobs by id, each job's ticket, the pool
of worker processes and the worker's own loop.
"""

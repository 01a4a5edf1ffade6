"""Helpers shared by the sweeps and process tests.

    routes     RouteSampler: every rule of app.url_map as a concrete path, URL arguments filled
               from SAMPLES (records created in the sandbox on demand); unknown arguments fail.
    htmx       hx-* actions found in a page's HTML, to replay them as htmx requests.
    strategies JSON_VALUES: any value a JSON body can carry, for the never-a-500 properties.
    processes  free ports, a real redis-server fixture, Bookdesk under gunicorn as a subprocess.
"""

-- wrk script for bench/ingest.ts: POSTs varied realistic /api/v1/event bodies, each with its own
-- User-Agent and X-Forwarded-For, read from the file named by the BENCH_EVENTS environment variable.
local events = {}
local n = 0
local i = 0

function init(args)
  local path = os.getenv("BENCH_EVENTS")
  for line in io.lines(path) do
    local ua, ip, body = line:match("^([^\t]*)\t([^\t]*)\t(.*)$")
    if body then
      n = n + 1
      events[n] = wrk.format("POST", "/api/v1/event", {
        ["Content-Type"] = "text/plain;charset=UTF-8",
        ["User-Agent"] = ua,
        ["X-Forwarded-For"] = ip,
      }, body)
    end
  end
  -- Threads start at different offsets so they do not send the same sequence.
  i = math.random(n)
end

function request()
  i = i % n + 1
  return events[i]
end

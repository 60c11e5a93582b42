-- wrk script of the load benchmark: cycles through a file of request paths (one per line), sends
-- X-API-Key and, when given, Accept-Encoding, and prints one BENCH_JSON line with the counts and
-- latency percentiles the harness parses. Requests are formatted once in init, not per request.
-- Usage: wrk -t1 -c64 -d5s -s mix.lua http://127.0.0.1:3000 -- paths.txt <api key> [accept-encoding]
-- (paced.lua adds a pause before each request; wrk checks for a delay function at load, and any
-- delay function, even one returning 0, puts every request through a timer.)

local requests = {}
local count = 0
local i = 0
PAUSE_MS = 0

-- A line of the file as a request with `headers` (the key, Accept-Encoding): here a GET of the
-- path; requests.lua reads whole requests instead.
function format_line(line, headers)
  return wrk.format("GET", line, headers)
end

function init(args)
  local headers = { ["X-API-Key"] = args[2] }
  if args[3] ~= nil and args[3] ~= "" then headers["Accept-Encoding"] = args[3] end
  if args[4] ~= nil and args[4] ~= "" then PAUSE_MS = tonumber(args[4]) end
  for line in io.lines(args[1]) do
    if #line > 0 then
      count = count + 1
      requests[count] = format_line(line, headers)
    end
  end
  if count == 0 then error("no paths in " .. args[1]) end
end

function request()
  i = i % count + 1
  return requests[i]
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'BENCH_JSON {"requests":%d,"durationUs":%d,"bytes":%d,"connectErrors":%d,"readErrors":%d,"writeErrors":%d,"statusErrors":%d,"timeouts":%d,"p50Us":%d,"p90Us":%d,"p99Us":%d,"maxUs":%d,"meanUs":%.1f}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, latency.mean))
end

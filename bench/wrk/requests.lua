-- wrk script of bench:mcp: cycles through a file of whole requests, one per line:
-- METHOD <tab> PATH <tab> HEADER LINES (each "Name: value", joined by the byte 0x1f) <tab> BODY
-- (the body may be empty; JSON holds no raw tab or newline). Sends X-API-Key and, when given,
-- Accept-Encoding with each, and prints one BENCH_JSON line as mix.lua does. Requests are
-- formatted once in init, not per request.
-- Usage: wrk -t1 -c16 -d5s -s requests.lua http://127.0.0.1:3000 -- requests.txt <api key> [accept-encoding]

local requests = {}
local count = 0
local i = 0

function init(args)
  for line in io.lines(args[1]) do
    if #line > 0 then
      local method, path, headerLines, body = line:match("^([^\t]*)\t([^\t]*)\t([^\t]*)\t(.*)$")
      if method == nil then error("not METHOD<tab>PATH<tab>HEADERS<tab>BODY: " .. line) end
      local headers = { ["X-API-Key"] = args[2] }
      if args[3] ~= nil and args[3] ~= "" then headers["Accept-Encoding"] = args[3] end
      for header in headerLines:gmatch("[^\31]+") do
        local name, value = header:match("^([^:]+):%s*(.*)$")
        headers[name] = value
      end
      count = count + 1
      requests[count] = wrk.format(method, path, headers, #body > 0 and body or nil)
    end
  end
  if count == 0 then error("no requests in " .. args[1]) end
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

-- mix.lua over a file of whole requests (bench:mcp), one per line:
-- METHOD <tab> PATH <tab> HEADER LINES (each "Name: value", joined by the byte 0x1f) <tab> BODY
-- (the body may be empty; JSON holds no raw tab or newline), each sent with the key and, when
-- given, Accept-Encoding, as mix.lua sends its paths.
-- Usage: wrk -t1 -c16 -d5s -s requests.lua http://127.0.0.1:3000 -- requests.txt <api key> [accept-encoding]

dofile(debug.getinfo(1, "S").source:sub(2):match("(.*/)") .. "mix.lua")

function format_line(line, shared)
  local method, path, headerLines, body = line:match("^([^\t]*)\t([^\t]*)\t([^\t]*)\t(.*)$")
  if method == nil then error("not METHOD<tab>PATH<tab>HEADERS<tab>BODY: " .. line) end
  local headers = {}
  for name, value in pairs(shared) do headers[name] = value end
  for header in headerLines:gmatch("[^\31]+") do
    local name, value = header:match("^([^:]+):%s*(.*)$")
    headers[name] = value
  end
  return wrk.format(method, path, headers, #body > 0 and body or nil)
end

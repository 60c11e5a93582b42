-- mix.lua with a pause: each connection waits a random 0 … 2 × PAUSE_MS ms (the 4th script
-- argument; PAUSE_MS on average) before each request, so the offered rate is about
-- connections × 1000 / (PAUSE_MS + latency) and latency measures service time at that load
-- instead of queueing behind 64 in-flight requests. The pause is random so the connections do not
-- stay in step (a fixed pause keeps all 64 firing together, in bursts).
-- Usage: wrk -t1 -c64 -d5s -s paced.lua http://127.0.0.1:3000 -- paths.txt <api key> <accept-encoding> <pause ms>

dofile(debug.getinfo(1, "S").source:sub(2):match("(.*/)") .. "mix.lua")

function delay()
  return math.random(0, 2 * PAUSE_MS)
end

-- wrk script for the soak: cycles through a realistic URL mix with the API key from the environment.
local key = os.getenv("COURTSIDE_KEY")
local urls = {
  "/api/players", "/api/players?limit=100&sort=name:asc", "/api/players?position=guard&three_ball_gte=80&sort=speed:desc",
  "/api/players?era=all&minRating=85&fields=name,overall", "/api/teams", "/api/teams/boston-celtics/roster",
  "/api/players/search?q=jokic", "/api/players/search?q=james%20lebron", "/api/versions/2K24/players?offset=50&limit=25",
  "/api/players/lebron-james/history", "/api/players/slug/lebron-james", "/api/versions/2K27/players/michael-jordan",
}
local i = 0
request = function()
  i = i + 1
  -- A fresh cursor now and then keeps the response cache churning, as real clients do.
  local url = urls[(i % #urls) + 1]
  if i % 7 == 0 then url = "/api/players?era=all&limit=10&cursor=" .. tostring(i % 1400) end
  return wrk.format("GET", url, { ["X-API-Key"] = key })
end
local non2xx = 0
response = function(status)
  if status ~= 200 then non2xx = non2xx + 1 end
end
done = function(summary)
  io.write(string.format("non2xx=%d\n", non2xx))
end

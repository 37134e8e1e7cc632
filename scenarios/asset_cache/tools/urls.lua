-- wrk script: requests the paths of a URL list (one per line), in order (cycle) or at random.
--   wrk -t1 -c32 -d5s -s urls.lua http://127.0.0.1:PORT -- /path/to/urls.txt [cycle|uniform] [gzip]
-- Requests are formatted once in init(), so the per-request Lua work is an index step.
local reqs = {}
local n = 0
local i = 0
local mode = "cycle"

function init(args)
  local file = args[1] or "urls.txt"
  mode = args[2] or "cycle"
  local headers = {}
  if args[3] == "gzip" then headers["Accept-Encoding"] = "gzip" end
  for line in io.lines(file) do
    if #line > 0 and line:sub(1, 1) == "/" then
      n = n + 1
      reqs[n] = wrk.format("GET", line, headers)
    end
  end
  math.randomseed(1)
end

function request()
  if mode == "uniform" then
    return reqs[math.random(n)]
  end
  i = i % n + 1
  return reqs[i]
end

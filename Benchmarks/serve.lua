-- wrk script of Benchmarks/serve.sh.
--   WRK_MODE=get    (default) the URL given to wrk, with `Authorization: Bearer $WRK_TOKEN` when WRK_TOKEN is set
--   WRK_MODE=pairs  take + return over and over: wrk's thread i (run it with as many threads as connections, so
--                   each connection is one thread) acts as the client of line i of $WRK_TOKENS and takes and
--                   returns book $WRK_FIRST_BOOK + i - 1, so no two connections refuse each other; with
--                   WRK_PREFER set, each request carries `Prefer: $WRK_PREFER`
-- At the end one line: "WRK requests=... seconds=... rps=... p50_us=... p99_us=... errors=... non2xx=...".

local mode = os.getenv("WRK_MODE") or "get"
local threads = {}
local counter = 0

function setup(thread)
  counter = counter + 1
  thread:set("index", counter)
  table.insert(threads, thread)
end

function init(args)
  if mode == "pairs" then
    local tokens = {}
    for line in io.lines(os.getenv("WRK_TOKENS")) do
      if #line > 0 then table.insert(tokens, line) end
    end
    if index > #tokens then error("more wrk threads than tokens") end
    local auth = "Bearer " .. tokens[index]
    local book = tonumber(os.getenv("WRK_FIRST_BOOK")) + index - 1
    local take_headers = { ["Authorization"] = auth, ["Content-Type"] = "application/json" }
    local return_headers = { ["Authorization"] = auth, ["Content-Length"] = "0" }
    local prefer = os.getenv("WRK_PREFER")
    if prefer and #prefer > 0 then
      take_headers["Prefer"] = prefer
      return_headers["Prefer"] = prefer
    end
    take = wrk.format("POST", "/v1/loans", take_headers, '{"bookIds": [' .. book .. ']}')
    give_back = wrk.format("DELETE", "/v1/loans/" .. book, return_headers)
    taking = true
  else
    local token = os.getenv("WRK_TOKEN")
    if token and #token > 0 then wrk.headers["Authorization"] = "Bearer " .. token end
  end
end

-- In pairs mode the next request follows from the last response, not from the last request: wrk calls request()
-- once more than it sends (on its first thread, to check the script), and a connection waits for each response.
function request()
  if mode ~= "pairs" then return wrk.request() end
  return taking and take or give_back
end

if mode == "pairs" then
  function response(status, headers, body)
    taking = not taking
  end
end

function done(summary, latency, requests)
  local seconds = summary.duration / 1e6
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout
  io.write(string.format("WRK requests=%d seconds=%.3f rps=%.1f p50_us=%d p99_us=%d errors=%d non2xx=%d\n",
    summary.requests, seconds, summary.requests / seconds, latency:percentile(50), latency:percentile(99),
    errors, summary.errors.status))
end

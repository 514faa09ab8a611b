-- The workbook's wrk script (wrk -s harness/wrk/report.lua ...). It adds nothing to what wrk sends
-- unless asked, and at the end prints one line the harness reads, beside wrk's own report:
--   WORKBOOK-WRK {"requests":..., "durationUs":..., "bytes":..., "cpuTicks":..., "errors":{...},
--                 "latencyUs":{"min":..., "max":..., "mean":..., "stdev":..., "percentiles":[[p, us], ...]},
--                 "statuses":{"200": n, ...} or null}
-- Environment (all optional):
--   WORKBOOK_WRK_METHOD    the request's method (GET when unset)
--   WORKBOOK_WRK_BODY      the request's body
--   WORKBOOK_WRK_STATUSES  "1": count the answers by status (a Lua call per answer: costs wrk CPU, so
--                          only for loads where a status other than 2xx is expected, such as 304 or 503)
-- Headers go on wrk's command line (-H 'name: value'), as a learner would type them.

local method = os.getenv("WORKBOOK_WRK_METHOD")
if method and method ~= "" then wrk.method = method end
local body = os.getenv("WORKBOOK_WRK_BODY")
if body and body ~= "" then wrk.body = body end

local threads = {}
function setup(thread)
  table.insert(threads, thread)
end

statuses = {}
if os.getenv("WORKBOOK_WRK_STATUSES") == "1" then
  function response(status, headers, body)
    statuses[status] = (statuses[status] or 0) + 1
  end
end

-- The percentiles the harness rebuilds a run's latency distribution from (wrk keeps one counter
-- per microsecond; this grid is 1 % wide in the body and finer in the tail).
local grid = {}
for p = 1, 99 do grid[#grid + 1] = p end
for p = 99.1, 99.95, 0.1 do grid[#grid + 1] = p end
grid[#grid + 1] = 99.99

local function num(x)
  if x ~= x or x == math.huge or x == -math.huge then return "null" end
  return string.format("%.17g", x)
end

-- wrk's own CPU time (user + system, every thread, in clock ticks), read as it ends: /proc/self/stat's
-- fields 14 and 15 (after the command name in parentheses). nil where there is no /proc.
local function cpuTicks()
  local f = io.open("/proc/self/stat", "r")
  if not f then return nil end
  local stat = f:read("*a")
  f:close()
  local fields = {}
  for word in stat:sub(stat:match(".*%)()") + 1):gmatch("%S+") do fields[#fields + 1] = word end
  return tonumber(fields[12]) + tonumber(fields[13])
end

function done(summary, latency, requests)
  local out = {}
  local function add(s) out[#out + 1] = s end
  local ticks = cpuTicks()
  add(string.format('{"requests":%s,"durationUs":%s,"bytes":%s,"cpuTicks":%s', num(summary.requests),
    num(summary.duration), num(summary.bytes), ticks and num(ticks) or "null"))
  local e = summary.errors
  add(string.format(',"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d}',
    e.connect, e.read, e.write, e.status, e.timeout))
  add(string.format(',"latencyUs":{"min":%s,"max":%s,"mean":%s,"stdev":%s,"percentiles":[',
    num(summary.requests > 0 and latency.min or 0 / 0), num(latency.max), num(latency.mean), num(latency.stdev)))
  if summary.requests > 0 then
    for i, p in ipairs(grid) do
      add(string.format('%s[%.6g,%s]', i > 1 and "," or "", p, num(latency:percentile(p))))
    end
  end
  add(']}')
  if os.getenv("WORKBOOK_WRK_STATUSES") == "1" then
    local total = {}
    for _, t in ipairs(threads) do
      for status, n in pairs(t:get("statuses") or {}) do
        total[status] = (total[status] or 0) + n
      end
    end
    local parts = {}
    for status, n in pairs(total) do parts[#parts + 1] = string.format('"%d":%d', status, n) end
    add(',"statuses":{' .. table.concat(parts, ",") .. '}')
  else
    add(',"statuses":null')
  end
  add('}')
  io.write("WORKBOOK-WRK ", table.concat(out), "\n")
end

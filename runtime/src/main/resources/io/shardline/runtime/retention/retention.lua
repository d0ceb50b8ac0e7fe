-- Retention of one shard, read and trimmed in one atomic step (docs/operations.md, "Retention").
-- KEYS[1]  the shard's stream key
-- ARGV[1]  the maximum length to keep, 0 for none
-- ARGV[2]  the oldest entry time to keep in ms (now - max age), 0 for none
-- ARGV[3]  the most entries one call may trim (bounds the work of one call)
-- Returns {trimmed, retention bound or '', trimmed to (MINID) or '', holding group or '', entries held back,
-- the oldest entry held back or ''}.
-- The MINID is the smaller of the retention bound and what every consumer group on the key still needs
-- (its oldest pending entry, else the entry after its last delivered one): no group loses an entry it has
-- not been delivered or has not acknowledged, whoever created the group.
local key = KEYS[1]
local maxlen = tonumber(ARGV[1])
local oldest = tonumber(ARGV[2])
local budget = tonumber(ARGV[3])
if redis.call('EXISTS', key) == 0 then
    return {0, '', '', '', 0, ''}
end

local function parse(id)
    local ms, seq = string.match(id, '^(%d+)-(%d+)$')
    return tonumber(ms), tonumber(seq), ms
end

local function less(a, b)
    local am, as = parse(a)
    local bm, bs = parse(b)
    return am < bm or (am == bm and as < bs)
end

-- 1. The retention bound: the first entry retention keeps (at most `budget` entries before it).
local bound = nil
local len = redis.call('XLEN', key)
local first = redis.call('XRANGE', key, '-', '+', 'COUNT', 1)
if #first == 0 then
    return {0, '', '', '', 0, ''}
end
local overLength = maxlen > 0 and len > maxlen
local overAge = oldest > 0 and less(first[1][1], oldest .. '-0')
if overLength or overAge then
    local head = redis.call('XRANGE', key, '-', '+', 'COUNT', budget + 1)
    if overLength then
        local drop = math.min(len - maxlen, budget)
        bound = head[drop + 1][1]
    end
    if overAge then
        local ageBound = oldest .. '-0'
        if #head == budget + 1 and less(head[budget + 1][1], ageBound) then
            ageBound = head[budget + 1][1]
        end
        if bound == nil or less(bound, ageBound) then
            bound = ageBound
        end
    end
end
if bound == nil then
    return {0, '', '', '', 0, ''}
end

-- 2. What the groups still need: each group's oldest pending entry, else the entry after its last delivered one.
local need = nil
local holder = ''
local groups = redis.call('XINFO', 'GROUPS', key)
for _, g in ipairs(groups) do
    local name, last, pending
    for i = 1, #g, 2 do
        if g[i] == 'name' then
            name = g[i + 1]
        elseif g[i] == 'last-delivered-id' then
            last = g[i + 1]
        elseif g[i] == 'pending' then
            pending = g[i + 1]
        end
    end
    local _, seq, ms = parse(last)
    local groupNeed = ms .. '-' .. string.format('%d', seq + 1)
    if pending > 0 then
        local summary = redis.call('XPENDING', key, name)
        if less(summary[2], groupNeed) then
            groupNeed = summary[2]
        end
    end
    if need == nil or less(groupNeed, need) then
        need = groupNeed
        holder = name
    end
end

-- 3. Trim to the smaller of the two; count (up to budget) what a group holds back.
local minid = bound
local held = 0
local oldestHeld = ''
if need ~= nil and less(need, bound) then
    minid = need
    local kept = redis.call('XRANGE', key, need, '(' .. bound, 'COUNT', budget)
    held = #kept
    if held == 0 then
        holder = ''
    else
        oldestHeld = kept[1][1]
    end
else
    holder = ''
end
local trimmed = redis.call('XTRIM', key, 'MINID', '=', minid)
return {trimmed, bound, minid, holder, held, oldestHeld}

#!lua flags=no-writes
-- The status of shards of one consumer group in one call (ShardStatusReader; docs/rest.md, listener status).
-- KEYS     per shard three keys of one hash slot: the shard's stream key, its owner hash of the group, its
--          routing hash ({<stream>:<i>}, {<stream>:<i>}:owner:<group>, {<stream>:<i>}:routing)
-- ARGV[1]  the group
-- Returns per shard {owner or nil, owner epoch or nil, 1 when the group exists on the shard else 0, lag or nil,
-- pending, last delivered id or nil, idle ms of the oldest pending entry or nil, the routing hash's fields and
-- values}. Reads only.
local group = ARGV[1]
local out = {}
for i = 1, #KEYS, 3 do
    local owner = redis.call('HMGET', KEYS[i + 1], 'owner', 'epoch')
    local found, lag, pending, last, idle = 0, false, 0, false, false
    -- A shard whose stream does not exist yet has no group: XINFO answers an error, read as "no group".
    local groups = redis.pcall('XINFO', 'GROUPS', KEYS[i])
    if type(groups) == 'table' and groups.err == nil then
        for _, g in ipairs(groups) do
            local fields = {}
            for j = 1, #g, 2 do
                fields[g[j]] = g[j + 1]
            end
            if fields['name'] == group then
                found = 1
                lag = fields['lag'] or false
                pending = fields['pending'] or 0
                last = fields['last-delivered-id'] or false
                break
            end
        end
    end
    if pending > 0 then
        local first = redis.call('XPENDING', KEYS[i], group, '-', '+', 1)
        if first[1] then
            idle = first[1][3]
        end
    end
    out[#out + 1] = {owner[1], owner[2], found, lag, pending, last, idle, redis.call('HGETALL', KEYS[i + 2])}
end
return out

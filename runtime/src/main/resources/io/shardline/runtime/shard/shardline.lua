#!lua name=shardline
-- Shardline's shard library (Redis FUNCTION, Redis 7.0+). Every function takes
-- KEYS[1] = shard stream key {<stream>:<i>}, KEYS[2] = owner key {<stream>:<i>}:owner:<group> of the
-- consumer group concerned (same hash slot). Each group has its own owner key and owner epochs, so groups
-- reading the same stream never fence each other.
-- Reads, acks and takeovers are fenced: they run only when the owner hash holds exactly this member
-- and epoch, so a member that lost the shard can neither pull entries into its PEL nor acknowledge any.
-- Errors: 'FENCED <key> owner=<o> epoch=<e>' (another owner holds the shard: stop it locally),
--         'NOOWNER <key>' (no owner recorded yet, e.g. after Redis lost its data: retry later).
-- The library version is returned by shardline_version; bump it with every change.
-- shard_read and shard_ack_read take KEYS[3] = the shard's routing hash {<stream>:<i>}:routing (same slot) and
-- enforce the read rule of live resharding on new entries (docs/protocol.md section 8b, "The read rule").

local function owner_check(keys, member, epoch)
  local cur = redis.call('HMGET', keys[2], 'owner', 'epoch')
  if not cur[1] then
    return redis.error_reply('NOOWNER ' .. keys[1] .. ' has no owner')
  end
  if cur[1] ~= member or cur[2] ~= epoch then
    return redis.error_reply('FENCED ' .. keys[1] .. ' owner=' .. tostring(cur[1]) .. ' epoch=' .. tostring(cur[2]))
  end
  return nil
end

-- Reads up to count entries for member. Reply: {cursor, entries}; entries = {{id, {field, value, ...}[, deliveries]}, ...}.
-- cursor: the last id of the raw page; or, when nothing came back, for '>' the stream's top id (the
-- wake-up position for XREAD BLOCK, '0-0' when empty) and for a PEL read '' (the PEL is exhausted).
-- Entries deleted from the stream but still pending are acknowledged here and not returned.
local function read_entries(keys, group, member, count, id)
  local r = redis.call('XREADGROUP', 'GROUP', group, member, 'COUNT', count, 'STREAMS', keys[1], id)
  local raw = (r and r[1] and r[1][2]) or {}
  if id == '>' then
    if #raw > 0 then return {raw[#raw][1], raw} end
    local top = redis.call('XREVRANGE', keys[1], '+', '-', 'COUNT', 1)
    return {(top[1] and top[1][1]) or '0-0', raw}
  end
  if #raw == 0 then return {'', raw} end
  local live = {}
  local gone = {}
  for _, entry in ipairs(raw) do
    if entry[2] then live[#live + 1] = entry else gone[#gone + 1] = entry[1] end
  end
  if #gone > 0 then redis.call('XACK', keys[1], group, unpack(gone)) end
  if #live > 0 then
    local p = redis.call('XPENDING', keys[1], group, live[1][1], live[#live][1], #live, member)
    local counts = {}
    for _, row in ipairs(p) do counts[row[1]] = row[4] end
    for i = 1, #live do live[i][3] = counts[live[i][1]] or 1 end
  end
  return {raw[#raw][1], live}
end

-- Compares two stream ids ('<ms>-<seq>', no leading zeros) exactly: -1, 0 or 1.
local function id_cmp(a, b)
  local am, as = string.match(a, '^(%d+)-(%d+)$')
  local bm, bs = string.match(b, '^(%d+)-(%d+)$')
  local function num(x, y)
    if #x ~= #y then return #x < #y and -1 or 1 end
    if x == y then return 0 end
    return x < y and -1 or 1
  end
  local c = num(am, bm)
  if c ~= 0 then return c end
  return num(as, bs)
end

-- The cutover bounding group's reads of new entries on this shard: {epoch, cutover id, waiting} where epoch is the
-- smallest epoch E above released:<group> that has a cutover:<E> field in the routing hash KEYS[3] and waiting the
-- group's waiting:<group> field ('<E>:<since ms>', or nil); nil when there is no such cutover (no routing hash, or
-- every cutover released): then the group reads freely, and a leftover waiting:<group> field is removed.
local function cutover_bound(keys, group)
  if not keys[3] then return nil end
  local all = redis.call('HGETALL', keys[3])
  if #all == 0 then return nil end
  local released = 0
  local waiting = nil
  local cutovers = {}
  for i = 1, #all, 2 do
    local f = all[i]
    if f == 'released:' .. group then
      released = tonumber(all[i + 1]) or 0
    elseif f == 'waiting:' .. group then
      waiting = all[i + 1]
    elseif string.sub(f, 1, 8) == 'cutover:' then
      local e = tonumber(string.sub(f, 9))
      if e then cutovers[#cutovers + 1] = {e, all[i + 1]} end
    end
  end
  local best = nil
  for _, c in ipairs(cutovers) do
    if c[1] > released and (not best or c[1] < best[1]) then best = c end
  end
  if best then
    best[3] = waiting
  elseif waiting then
    redis.call('HDEL', keys[3], 'waiting:' .. group)
  end
  return best
end

-- The group's last-delivered-id on the shard, or nil when the stream or the group is missing.
local function last_delivered(key, group)
  local groups = redis.pcall('XINFO', 'GROUPS', key)
  if type(groups) ~= 'table' or groups.err then return nil end
  for _, g in ipairs(groups) do
    local name, last = nil, nil
    for i = 1, #g, 2 do
      if g[i] == 'name' then name = g[i + 1] elseif g[i] == 'last-delivered-id' then last = g[i + 1] end
    end
    if name == group then return last end
  end
  return nil
end

-- Reads up to count new entries ('>') under the read rule: with an unreleased cutover C (epoch E), only entries
-- with id <= C, at most as many as are left in (last-delivered-id, C]; when none is left, the reply is
-- {last-delivered-id, {}, E}: the shard waits at the cutover of epoch E (a third element only then), and the routing
-- hash's waiting:<group> field says since when ('<E>:<ms>', Redis time; removed once the group reads on).
local function read_new(keys, group, member, count)
  local bound = cutover_bound(keys, group)
  if not bound then return read_entries(keys, group, member, count, '>') end
  local last = last_delivered(keys[1], group)
  if not last then return read_entries(keys, group, member, count, '>') end -- reports the missing group
  local n = 0
  if id_cmp(last, bound[2]) < 0 then
    n = #redis.call('XRANGE', keys[1], '(' .. last, bound[2], 'COUNT', count)
  end
  local prefix = tostring(bound[1]) .. ':'
  if n == 0 then
    if not bound[3] or string.sub(bound[3], 1, #prefix) ~= prefix then
      local t = redis.call('TIME')
      local ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
      redis.call('HSET', keys[3], 'waiting:' .. group, prefix .. string.format('%d', ms))
    end
    return {last, {}, bound[1]}
  end
  if bound[3] then redis.call('HDEL', keys[3], 'waiting:' .. group) end
  return read_entries(keys, group, member, n, '>')
end

local function ack_ids(keys, group, mode, ids)
  if #ids == 0 then return 0 end
  if mode == 'XACKDEL' then
    redis.call('XACKDEL', keys[1], group, 'IDS', #ids, unpack(ids))
    return #ids
  end
  local n = redis.call('XACK', keys[1], group, unpack(ids))
  if mode == 'DEL' then redis.call('XDEL', keys[1], unpack(ids)) end
  return n
end

-- ARGV: group member epoch count id ('>' for new entries, under the read rule; or a PEL cursor such as '0',
-- not bounded: those entries were delivered under the rule already)
local function shard_read(keys, a)
  local e = owner_check(keys, a[2], a[3]); if e then return e end
  if a[5] == '>' then return read_new(keys, a[1], a[2], a[4]) end
  return read_entries(keys, a[1], a[2], a[4], a[5])
end

-- ARGV: group member epoch mode id...   mode: KEEP (XACK), DEL (XACK + XDEL, atomic), XACKDEL (Redis 8.2+)
-- Reply: the number of entries acknowledged.
local function shard_ack(keys, a)
  local e = owner_check(keys, a[2], a[3]); if e then return e end
  local ids = {}
  for i = 5, #a do ids[#ids + 1] = a[i] end
  return ack_ids(keys, a[1], a[4], ids)
end

-- ARGV: group member epoch mode count id...   Acknowledges the ids (as shard_ack), then reads up to
-- count new entries (as shard_read with '>', under the read rule): one round trip per batch on the hot path.
local function shard_ack_read(keys, a)
  local e = owner_check(keys, a[2], a[3]); if e then return e end
  local ids = {}
  for i = 6, #a do ids[#ids + 1] = a[i] end
  ack_ids(keys, a[1], a[4], ids)
  return read_new(keys, a[1], a[2], a[5])
end

-- The read behind a member's wake-up read (docs/architecture.md, "A record's way"): sent on the wake-up connection
-- right behind its blocking XREAD, so Redis runs it the moment that read returns, without a round trip in between.
-- KEYS: shard, owner key, routing hash of each shard (3 per shard). ARGV: group member count, then epoch and
-- wake-up id of each shard. For each shard with an entry after its wake-up id: a fenced read of new entries, as
-- shard_read with '>' (owner check, read rule). Reply, one element per shard: 0 (nothing after the wake-up id), the
-- read's reply ({cursor, entries[, waiting epoch]}), or {'E', error} (refused or failed: nothing read for it).
local function shard_read_woken(keys, a)
  local out = {}
  for i = 1, #keys / 3 do
    local k = {keys[3 * i - 2], keys[3 * i - 1], keys[3 * i]}
    local new = redis.call('XREAD', 'COUNT', 1, 'STREAMS', k[1], a[3 + 2 * i])
    if not new then
      out[i] = 0
    else
      local e = owner_check(k, a[2], a[2 + 2 * i])
      if e then
        out[i] = {'E', e.err}
      else
        local ok, r = pcall(read_new, k, a[1], a[2], a[3])
        if ok then out[i] = r else out[i] = {'E', tostring(type(r) == 'table' and r.err or r)} end
      end
    end
  end
  return out
end

-- ARGV: group member epoch cursor count
-- Moves up to count pending entries of any consumer (the previous owners) into this member's PEL
-- without bumping their delivery count; purges entries deleted from the stream.
-- Reply: {next-cursor, claimed}; next-cursor '0-0' means the sweep is complete.
local function shard_takeover(keys, a)
  local e = owner_check(keys, a[2], a[3]); if e then return e end
  local r = redis.call('XAUTOCLAIM', keys[1], a[1], a[2], 0, a[4], 'COUNT', a[5], 'JUSTID')
  return {r[1], #r[2]}
end

-- ARGV: member epoch   (called by the coordinator side when it hands the shard to a member)
-- Sets the owner only when epoch is higher than the recorded one; the same owner and epoch again is a no-op.
-- Reply: 1 when set, 0 when already set; error 'STALE_EPOCH ...' otherwise.
local function shard_set_owner(keys, a)
  local cur = redis.call('HMGET', keys[2], 'owner', 'epoch')
  local epoch = tonumber(a[2])
  if not epoch then return redis.error_reply('ERR epoch must be a number, got ' .. tostring(a[2])) end
  if cur[2] then
    local current = tonumber(cur[2])
    if current == epoch and cur[1] == a[1] then return 0 end
    if current >= epoch then
      return redis.error_reply('STALE_EPOCH ' .. keys[1] .. ' owner=' .. tostring(cur[1]) .. ' epoch=' .. cur[2]
        .. ' refuses owner=' .. a[1] .. ' epoch=' .. a[2])
    end
  end
  redis.call('HSET', keys[2], 'owner', a[1], 'epoch', a[2])
  return 1
end

-- The last handler error of entries still pending (for dead-lettering a record at max.deliveries, see
-- docs/operations.md "Poison records"): KEYS[2] here is the error hash {<stream>:<i>}:errors:<group>.
-- ARGV: group error id...   Notes error for every id; when a new field came in, drops the fields of entries
-- the group no longer has pending (handled after all), so the hash holds only entries in flight.
local function shard_note_error(keys, a)
  local added = 0
  for i = 3, #a do added = added + redis.call('HSET', keys[2], a[i], a[2]) end
  if added == 0 then return 0 end
  local all = redis.call('HGETALL', keys[2])
  for i = 1, #all, 2 do
    local id = all[i]
    if #redis.call('XPENDING', keys[1], a[1], id, id, 1) == 0 then redis.call('HDEL', keys[2], id) end
  end
  return added
end

-- ARGV: GET|DEL id   The error noted for id (false when none), or drops it (after its dead letter is written).
local function shard_error(keys, a)
  if a[1] == 'DEL' then return redis.call('HDEL', keys[2], a[2]) end
  return redis.call('HGET', keys[2], a[2])
end

local function shardline_version()
  return '6'
end

redis.register_function('shard_read', shard_read)
redis.register_function('shard_ack', shard_ack)
redis.register_function('shard_ack_read', shard_ack_read)
redis.register_function('shard_read_woken', shard_read_woken)
redis.register_function('shard_takeover', shard_takeover)
redis.register_function('shard_set_owner', shard_set_owner)
redis.register_function('shard_note_error', shard_note_error)
redis.register_function('shard_error', shard_error)
redis.register_function{function_name = 'shardline_version', callback = shardline_version, flags = {'no-writes'}}

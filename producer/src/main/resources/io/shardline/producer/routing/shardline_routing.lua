#!lua name=shardline_routing

-- The routing library (docs/protocol.md, section 8b, "The per-shard routing hash"): the flip of a shard to a
-- routing epoch and the epoch-checked XADD, each one atomic step in the slot of shard {<stream>:<i>}.
-- KEYS[1] is the shard's routing hash {<stream>:<i>}:routing, KEYS[2] the shard stream {<stream>:<i>}.

-- The shard's stored routing epoch (absent = 1).
local function stored_epoch(routing)
  local e = redis.call('HGET', routing, 'epoch')
  if e then
    return tonumber(e)
  end
  return 1
end

-- The id of the stream's last entry, 0-0 when it has none (or does not exist). Not XINFO's last-generated-id: an entry
-- deleted (acknowledged and deleted, trimmed by a cap) is read by nobody, and a cutover above every entry a group can
-- still read would hold that group's barrier for ever (docs/protocol.md, section 8b).
local function last_id(stream)
  local last = redis.call('XREVRANGE', stream, '+', '-', 'COUNT', 1)
  if #last == 0 then
    return '0-0'
  end
  return last[1][1]
end

-- Moves the shard to epoch e (a number) when it is below; returns cutover:<e> (0-0 when none was recorded).
local function flip(routing, stream, e)
  if stored_epoch(routing) < e then
    local last = last_id(stream)
    local epoch = string.format('%d', e)
    redis.call('HSET', routing, 'cutover:' .. epoch, last, 'epoch', epoch)
    return last
  end
  return redis.call('HGET', routing, 'cutover:' .. string.format('%d', e)) or '0-0'
end

local function epoch_arg(text)
  local e = tonumber(text)
  if not e or e < 1 or e ~= math.floor(e) then
    return nil
  end
  return e
end

-- ARGV: epoch. Returns the cutover id of that epoch on this shard.
redis.register_function('routing_flip', function(keys, args)
  local e = epoch_arg(args[1])
  if not e then
    return redis.error_reply('ERR routing_flip: the epoch must be a whole number >= 1, got ' .. tostring(args[1]))
  end
  return flip(keys[1], keys[2], e)
end)

-- The epoch check of a write routed under ARGV[3] (stream ARGV[1], shard ARGV[2]): an error reply when the shard is
-- at a newer epoch (nothing is written), nil otherwise, after flipping the shard to a newer epoch of the writer.
local function check_epoch(keys, args)
  local p = epoch_arg(args[3])
  if not p then
    return redis.error_reply('ERR the routing epoch must be a whole number >= 1, got ' .. tostring(args[3]))
  end
  local s = stored_epoch(keys[1])
  if p < s then
    return redis.error_reply('STALE_ROUTING ' .. args[1] .. ' shard=' .. args[2] .. ' epoch=' .. string.format('%d', s))
  end
  if p > s then
    flip(keys[1], keys[2], p)
  end
  return nil
end

-- ARGV: stream name, shard index, the producer's routing epoch P, then XADD's arguments after the key
-- (an optional cap, the id, the fields). P below the stored epoch S: refused, nothing written; P above: flip to P
-- first; then XADD. Returns the new entry id.
redis.register_function('routing_xadd', function(keys, args)
  local refused = check_epoch(keys, args)
  if refused then
    return refused
  end
  return redis.call('XADD', keys[2], unpack(args, 4))
end)

-- The epoch-checked move of an entry of another stream KEYS[3] (a dead letter) to the shard: on one Redis only
-- (KEYS[3] lies in another slot). ARGV: stream name, shard index, P, the entry's id, then field, value, ...
-- Returns the new entry id, or false (nothing done) when the entry is gone.
redis.register_function('routing_move', function(keys, args)
  if #redis.call('XRANGE', keys[3], args[4], args[4], 'COUNT', 1) == 0 then
    return false
  end
  local refused = check_epoch(keys, args)
  if refused then
    return refused
  end
  local id = redis.call('XADD', keys[2], '*', unpack(args, 5))
  redis.call('XDEL', keys[3], args[4])
  return id
end)

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

-- The stream's last generated id, 0-0 when it does not exist (or never had an entry).
local function last_id(stream)
  if redis.call('EXISTS', stream) == 0 then
    return '0-0'
  end
  local info = redis.call('XINFO', 'STREAM', stream)
  for i = 1, #info, 2 do
    if info[i] == 'last-generated-id' then
      return info[i + 1]
    end
  end
  return '0-0'
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

-- ARGV: stream name, shard index, the producer's routing epoch P, then XADD's arguments after the key
-- (an optional cap, the id, the fields). P below the stored epoch S: refused, nothing written; P above: flip to P
-- first; then XADD. Returns the new entry id.
redis.register_function('routing_xadd', function(keys, args)
  local p = epoch_arg(args[3])
  if not p then
    return redis.error_reply('ERR routing_xadd: the epoch must be a whole number >= 1, got ' .. tostring(args[3]))
  end
  local s = stored_epoch(keys[1])
  if p < s then
    return redis.error_reply('STALE_ROUTING ' .. args[1] .. ' shard=' .. args[2] .. ' epoch=' .. string.format('%d', s))
  end
  if p > s then
    flip(keys[1], keys[2], p)
  end
  return redis.call('XADD', keys[2], unpack(args, 4))
end)

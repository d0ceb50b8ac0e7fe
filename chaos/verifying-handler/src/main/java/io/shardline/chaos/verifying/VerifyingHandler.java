package io.shardline.chaos.verifying;

import io.shardline.api.config.ConfigDef;
import io.shardline.api.config.ConfigType;
import io.shardline.api.config.Importance;
import io.shardline.api.config.Validator;
import io.shardline.api.handler.HandlerContext;
import io.shardline.api.handler.NonRetriableException;
import io.shardline.api.handler.ShardContext;
import io.shardline.api.handler.StreamRecord;
import io.shardline.api.handler.SyncHandler;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The chaos suite's test handler: it does (optionally) a little simulated work per record and appends one
 * {@link HandlingLine} per handled record to a file of its own member, {@code <verify.dir>/<member id>.tsv}.
 *
 * <p>Durability: a batch's lines are written with one {@code write} call (looped until complete) before
 * {@link #handleBatch} returns, i.e. before the runtime acknowledges the batch. A {@code kill -9} cannot undo
 * a completed {@code write} (the data is in the OS page cache), so every acknowledged record has its line;
 * {@code verify.fsync=true} also forces the file to disk per batch (for power-loss tests; slow). A kill in the
 * middle of a batch loses that batch's lines, and those records were not acknowledged either: they are
 * handled again by the next owner.
 *
 * <p>Dispatch windows: every line also names its handler call (a per-member call number) and the time the
 * shard became ready for that call ({@code onAssigned} returned, or the shard's previous call returned): the
 * runtime's lease check for the call happened between that time and the call's first line, which is what the
 * checker needs to judge a call that a SIGSTOP caught between the lease check and the handler
 * ({@link HandlingLine}).
 *
 * <p>Thread-safety: batches of different shards may run at once; writes to the file are serialized; the
 * call counter and the per-shard ready times are concurrent.
 */
public class VerifyingHandler implements SyncHandler {

    static final String DIR_CONFIG = "verify.dir";
    static final String SEQ_FIELD_CONFIG = "verify.seq.field";
    static final String WORK_MS_CONFIG = "verify.work.ms";
    static final String FSYNC_CONFIG = "verify.fsync";

    private final LongSupplier clock;
    private final Object writeLock = new Object();
    private final AtomicLong calls = new AtomicLong();
    /** Per fencing token ({@code <stream>:<index>@<epoch>}): when the shard became ready for its next call. */
    private final Map<String, Long> readySince = new ConcurrentHashMap<>();
    private FileChannel out;
    private Path file;
    private String listener;
    private String member;
    private String seqField;
    private long workMs;
    private boolean fsync;

    /** The plugin constructor (wall clock: the checker compares times across processes of one host). */
    public VerifyingHandler() {
        this(System::currentTimeMillis);
    }

    VerifyingHandler(LongSupplier clock) {
        this.clock = clock;
    }

    @Override
    public String alias() {
        return "verifying-handler";
    }

    @Override
    public String description() {
        return "Chaos-suite test handler: logs every handling (shard, entry id, seq, member, epoch, times).";
    }

    @Override
    public ConfigDef config() {
        return new ConfigDef()
                .defineRequired(DIR_CONFIG, ConfigType.STRING, Validator.nonEmpty(), Importance.HIGH,
                        "Directory of the handling logs; each member appends to <dir>/<member id>.tsv.", "Verify")
                .define(SEQ_FIELD_CONFIG, ConfigType.STRING, "seq", Validator.nonEmpty(), Importance.MEDIUM,
                        "The record field holding the producer's sequence number.", "Verify")
                .define(WORK_MS_CONFIG, ConfigType.LONG, 0L, Validator.between(0, 60_000), Importance.LOW,
                        "Simulated work per record in milliseconds (widens the in-flight window).", "Verify")
                .define(FSYNC_CONFIG, ConfigType.BOOLEAN, false, Validator.any(), Importance.LOW,
                        "Force the log to disk after every batch (survives power loss, not only kill -9).", "Verify");
    }

    @Override
    public void start(HandlerContext context) throws IOException {
        listener = context.listenerName();
        member = context.memberId();
        seqField = context.config().getString(SEQ_FIELD_CONFIG);
        workMs = context.config().getLong(WORK_MS_CONFIG);
        fsync = context.config().getBoolean(FSYNC_CONFIG);
        Path dir = Path.of(context.config().getString(DIR_CONFIG));
        Files.createDirectories(dir);
        file = dir.resolve(member + ".tsv");
        out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
    }

    @Override
    public void onAssigned(ShardContext shard) {
        readySince.put(shard.fencingToken(), clock.getAsLong());
    }

    @Override
    public void onRevoked(ShardContext shard) {
        readySince.remove(shard.fencingToken());
    }

    @Override
    public void handle(StreamRecord record, ShardContext shard) throws Exception {
        handleBatch(List.of(record), shard);
    }

    @Override
    public void handleBatch(List<StreamRecord> records, ShardContext shard) throws Exception {
        long call = calls.incrementAndGet();
        String token = shard.fencingToken();
        long readyMs = readySince.getOrDefault(token, HandlingLine.UNKNOWN);
        try {
            StringBuilder lines = new StringBuilder(records.size() * 112);
            for (StreamRecord record : records) {
                long seq = sequenceOf(record);
                long startMs = clock.getAsLong();
                if (workMs > 0) {
                    Thread.sleep(workMs); // the simulated work itself, not a wait for a condition
                }
                long endMs = clock.getAsLong();
                new HandlingLine(listener, record.shard().stream(), record.shard().index(), record.entryId(), seq,
                        member, shard.ownerEpoch(), startMs, endMs, record.deliveryCount(), call, readyMs)
                        .appendTo(lines);
            }
            write(lines);
        } finally {
            // the runtime dispatches this shard's next call only after this one returned (also when it failed)
            readySince.put(token, clock.getAsLong());
        }
    }

    private long sequenceOf(StreamRecord record) throws NonRetriableException {
        String value = record.field(seqField);
        if (value == null) {
            return -1; // not a chaos record; the checker reports it as unexpected
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new NonRetriableException("field " + seqField + " of " + record.shard() + "/" + record.entryId()
                    + " is not a number: '" + value + "'", e);
        }
    }

    private void write(CharSequence lines) throws IOException {
        ByteBuffer bytes = ByteBuffer.wrap(lines.toString().getBytes(StandardCharsets.UTF_8));
        synchronized (writeLock) {
            if (out == null) {
                throw new IOException("verifying handler of " + member + " is stopped; cannot log to " + file);
            }
            while (bytes.hasRemaining()) {
                out.write(bytes);
            }
            if (fsync) {
                out.force(false);
            }
        }
    }

    @Override
    public void stop() throws IOException {
        synchronized (writeLock) {
            if (out != null) {
                out.close();
                out = null;
            }
        }
    }
}

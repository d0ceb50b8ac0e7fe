package io.shardline.runtime.cli;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.MemberAssignment;
import io.shardline.api.assignor.ShardSet;
import java.io.IOException;
import java.io.Writer;
import java.util.Iterator;
import java.util.Map;

/**
 * Writes the output of {@code bin/assign}: {@code {"assignment": {member: {stream: [shards]}}}}, one member per
 * line, members and streams sorted by name, shard lists ascending, {@code {}} for a member that gets nothing.
 * Streams shard numbers straight to the writer (a million-shard assignment builds no tree). Thread-safe.
 */
public final class AssignmentJsonWriter {

    /** Writes {@code assignment} to {@code out} (not closed, not flushed). */
    public void write(GroupAssignment assignment, Writer out) throws IOException {
        out.write("{\n  \"assignment\": {");
        Iterator<Map.Entry<String, MemberAssignment>> members = assignment.members().entrySet().iterator();
        if (!members.hasNext()) {
            out.write("}\n}\n");
            return;
        }
        out.write('\n');
        while (members.hasNext()) {
            Map.Entry<String, MemberAssignment> member = members.next();
            out.write("    ");
            quoted(member.getKey(), out);
            out.write(": {");
            Iterator<Map.Entry<String, ShardSet>> streams = member.getValue().shards().entrySet().iterator();
            while (streams.hasNext()) {
                Map.Entry<String, ShardSet> stream = streams.next();
                quoted(stream.getKey(), out);
                out.write(": [");
                ShardSet shards = stream.getValue();
                for (int i = 0; i < shards.size(); i++) {
                    if (i > 0) {
                        out.write(", ");
                    }
                    out.write(Integer.toString(shards.get(i)));
                }
                out.write(streams.hasNext() ? "], " : "]");
            }
            out.write(members.hasNext() ? "},\n" : "}\n");
        }
        out.write("  }\n}\n");
    }

    private static void quoted(String s, Writer out) throws IOException {
        out.write('"');
        out.write(JsonStringEncoder.getInstance().quoteAsString(s));
        out.write('"');
    }
}

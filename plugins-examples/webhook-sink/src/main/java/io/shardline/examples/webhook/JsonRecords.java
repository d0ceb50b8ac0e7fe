package io.shardline.examples.webhook;

import io.shardline.api.handler.StreamRecord;
import java.util.List;
import java.util.Map;

/** Renders records as a JSON array (JDK only, no library needed). Stateless. */
final class JsonRecords {

    private JsonRecords() {
    }

    /** {@code [{"stream":..,"shard":..,"id":..,"key":..|null,"timestamp":..,"deliveryCount":..,"fields":{..}}, ...]}. */
    static String render(List<StreamRecord> records) {
        StringBuilder sb = new StringBuilder(records.size() * 128).append('[');
        for (int i = 0; i < records.size(); i++) {
            StreamRecord r = records.get(i);
            if (i > 0) {
                sb.append(',');
            }
            sb.append("{\"stream\":");
            string(sb, r.shard().stream());
            sb.append(",\"shard\":").append(r.shard().index()).append(",\"id\":");
            string(sb, r.entryId());
            sb.append(",\"key\":");
            if (r.key().isPresent()) {
                string(sb, r.key().get());
            } else {
                sb.append("null");
            }
            sb.append(",\"timestamp\":").append(r.timestampMs()).append(",\"deliveryCount\":").append(r.deliveryCount());
            sb.append(",\"fields\":{");
            boolean first = true;
            for (Map.Entry<String, String> f : r.fields().entrySet()) {
                if (!first) {
                    sb.append(',');
                }
                first = false;
                string(sb, f.getKey());
                sb.append(':');
                string(sb, f.getValue());
            }
            sb.append("}}");
        }
        return sb.append(']').toString();
    }

    static void string(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }
}

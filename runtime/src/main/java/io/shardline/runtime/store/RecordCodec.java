package io.shardline.runtime.store;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.KeyDeserializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.record.CoordinatorRecord;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Serializes coordinator records as JSON for the Redis log: {@code {"type":"ShardOwnerRecord","record":{...}}}.
 * The type is the record's simple class name, looked up among the permitted subclasses of
 * {@link CoordinatorRecord}; shard ids are written as their key ({@code {orders:3}}), also as map keys;
 * {@code Optional} fields as the value or null. Unknown fields are an error: a record that does not read
 * back exactly must not be replayed.
 *
 * <p>Thread-safe.
 */
public final class RecordCodec {

    private static final Map<String, Class<?>> TYPES = new HashMap<>();

    static {
        for (Class<?> type : CoordinatorRecord.class.getPermittedSubclasses()) {
            TYPES.put(type.getSimpleName(), type);
        }
    }

    private final ObjectMapper mapper;

    /** A codec. */
    public RecordCodec() {
        SimpleModule module = new SimpleModule("shardline-records");
        module.addSerializer(ShardId.class, new JsonSerializer<>() {
            @Override
            public void serialize(ShardId value, JsonGenerator gen, SerializerProvider provider) throws IOException {
                gen.writeString(value.key());
            }
        });
        module.addKeySerializer(ShardId.class, new JsonSerializer<>() {
            @Override
            public void serialize(ShardId value, JsonGenerator gen, SerializerProvider provider) throws IOException {
                gen.writeFieldName(value.key());
            }
        });
        module.addDeserializer(ShardId.class, new JsonDeserializer<>() {
            @Override
            public ShardId deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
                return ShardId.fromKey(p.getValueAsString());
            }
        });
        module.addKeyDeserializer(ShardId.class, new KeyDeserializer() {
            @Override
            public Object deserializeKey(String key, DeserializationContext ctxt) {
                return ShardId.fromKey(key);
            }
        });
        module.addSerializer(Optional.class, new JsonSerializer<>() {
            @Override
            public void serialize(Optional value, JsonGenerator gen, SerializerProvider provider) throws IOException {
                if (value.isPresent()) {
                    provider.defaultSerializeValue(value.get(), gen);
                } else {
                    gen.writeNull();
                }
            }

            @Override
            public boolean isEmpty(SerializerProvider provider, Optional value) {
                return false;
            }
        });
        module.addDeserializer(Optional.class, new JsonDeserializer<>() {
            @Override
            public Optional<?> deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
                return Optional.ofNullable(p.getValueAsString());
            }

            @Override
            public Optional<?> getNullValue(DeserializationContext ctxt) {
                return Optional.empty();
            }
        });
        this.mapper = new ObjectMapper().registerModule(module)
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    }

    /** One record as JSON. */
    public String encode(CoordinatorRecord record) {
        ObjectNode envelope = mapper.createObjectNode();
        envelope.put("type", record.getClass().getSimpleName());
        envelope.set("record", mapper.valueToTree(record));
        try {
            return mapper.writeValueAsString(envelope);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize " + record, e);
        }
    }

    /** Records as JSON, in order. */
    public List<String> encodeAll(List<CoordinatorRecord> records) {
        return records.stream().map(this::encode).toList();
    }

    /**
     * One record from JSON.
     *
     * @throws IllegalArgumentException naming the type and the problem when the JSON is not a known record
     */
    public CoordinatorRecord decode(String json) {
        try {
            JsonNode envelope = mapper.readTree(json);
            String type = envelope.path("type").asText();
            Class<?> cls = TYPES.get(type);
            if (cls == null) {
                throw new IllegalArgumentException("unknown coordinator record type '" + type + "'");
            }
            return (CoordinatorRecord) mapper.treeToValue(envelope.get("record"), cls);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("unreadable coordinator record: " + e.getOriginalMessage(), e);
        }
    }

    /** Records from JSON, in order. */
    public List<CoordinatorRecord> decodeAll(List<String> json) {
        return json.stream().map(this::decode).toList();
    }
}

import { PRIORITIES, type Priority } from "@/lib/tasks/columns";

export function PrioritySelect({
  value,
  onChange,
  className,
}: {
  value: string;
  onChange: (priority: Priority) => void;
  className: string;
}) {
  return (
    <label className="mb-3 block text-sm font-medium">
      Priority
      <select value={value} onChange={(event) => onChange(event.target.value as Priority)} className={className}>
        {PRIORITIES.map((priority) => (
          <option key={priority} value={priority}>
            {priority.toUpperCase()}
          </option>
        ))}
      </select>
    </label>
  );
}
